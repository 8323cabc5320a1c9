import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.js';
import { RequireAuth } from '../features/auth/RequireAuth.js';
import { DashboardPage } from '../features/dashboard/DashboardPage.js';
import { PanelLayout } from '../features/dashboard/PanelLayout.js';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { RouteErrorPage } from '../features/errors/RouteErrorPage.js';
import { routerBasename } from './basePath.js';
import { IndexRedirect } from './IndexRedirect.js';
import { RootLayout } from './RootLayout.js';

export function createAppRouter() {
  return createBrowserRouter(
    [
      {
        element: <RootLayout />,
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <IndexRedirect /> },
          { path: 'login', element: <LoginPage /> },
          {
            path: 'panel',
            element: (
              <RequireAuth>
                <PanelLayout />
              </RequireAuth>
            ),
            children: [
              { index: true, element: <DashboardPage /> },
              { path: 'dashboard', element: <DashboardPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    { basename: routerBasename() },
  );
}
