/**
 * The product credited in the default footer (shown when the site sets no footer_html): its name
 * links to the About page, and the licence to the LICENSE.txt the console build ships.
 */
export const productInfo = {
  name: 'One Hub',
  aboutPath: '/about',
  licenseFile: 'LICENSE.txt',
} as const;
