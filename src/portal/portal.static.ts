import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';

export const PORTAL_PATH = '/portal';

/**
 * Where `npm run build` puts the portal (Vite, from `portal/` into `portal/dist/`, beside the service's `dist/` that `nest build` empties). Resolved from this file so that the
 * compiled service (`dist/portal/`) and the sources under test (`src/portal/`) find the same place.
 */
export const PORTAL_BUILD_DIRECTORY = fileURLToPath(new URL('../../portal/dist', import.meta.url));

/** Vite names every asset after a hash of its content: a URL never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built portal under `/portal/`. The page revalidates on every load (`no-cache`) so a
 * new build is picked up at once; its hashed assets are cached for a year.
 */
export function servePortal(app: NestExpressApplication, directory = PORTAL_BUILD_DIRECTORY): void {
  if (!existsSync(join(directory, 'index.html'))) {
    new Logger('Portal').warn(`The portal is enabled but not built (${directory}): run npm run build`);
  }
  app.useStaticAssets(directory, {
    prefix: PORTAL_PATH,
    index: 'index.html',
    redirect: true,
    dotfiles: 'ignore',
    setHeaders: (response: Response, path: string) => {
      response.setHeader(
        'Cache-Control',
        path.startsWith(join(directory, 'assets')) ? IMMUTABLE : 'no-cache',
      );
    },
  });
}
