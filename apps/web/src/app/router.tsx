import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { RouteErrorPage } from '../features/errors/RouteErrorPage.js';
import { routerBasename } from './basePath.js';
import { RequireAdmin } from './guards/RequireAdmin.js';
import { RequireAuth } from './guards/RequireAuth.js';
import { PanelLayout } from './layouts/panel/PanelLayout.js';
import { PublicLayout } from './layouts/public/PublicLayout.js';
import { RootLayout } from './RootLayout.js';
import { type PageRoute, panelRoutes, publicRoutes } from './routes.js';

function toRouteObject({ path, page: Page, admin, root }: PageRoute): RouteObject {
  const page = <Page />;
  const element = admin || root ? <RequireAdmin root={root}>{page}</RequireAdmin> : page;
  return path === '' ? { index: true, element } : { path, element };
}

/** Builds the router from the route table in routes.tsx; unknown paths show the 404 screen. */
export function createAppRouter() {
  return createBrowserRouter(
    [
      {
        element: <RootLayout />,
        errorElement: <RouteErrorPage />,
        children: [
          {
            element: <PublicLayout />,
            children: [...publicRoutes.map(toRouteObject), { path: '*', element: <NotFoundPage /> }],
          },
          {
            path: 'panel',
            element: (
              <RequireAuth>
                <PanelLayout />
              </RequireAuth>
            ),
            children: [...panelRoutes.map(toRouteObject), { path: '*', element: <NotFoundPage /> }],
          },
        ],
      },
    ],
    { basename: routerBasename() },
  );
}
