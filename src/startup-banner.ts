import { Logger } from '@nestjs/common';
import type { AppConfig } from './config/app.config.js';
import { DEMO_USERS } from './demo/demo-users.js';
import { PORTAL_PATH } from './portal/portal.static.js';

/** What a newcomer needs once the service listens: where it is, where to click, who can sign in. */
export function startupBanner(config: AppConfig): string {
  const base = `http://localhost:${config.port}`;
  const lines = [
    `Process Lookup Service is listening on ${base}`,
    `  API reference  ${base}/docs`,
    ...(config.portal.enabled ? [`  Portal         ${base}${PORTAL_PATH}/`] : []),
    `  Health         ${base}/health/ready`,
    ...(config.operations.baseUrl !== null ? [`  Operations     ${config.operations.baseUrl}`] : []),
  ];
  if (config.demoMode) {
    lines.push(
      '  Demo users     ' +
        DEMO_USERS.map(
          (user) =>
            `${user.username} / ${user.password} (${user.role === 'staff' ? 'staff' : user.customerIds.join(', ')})`,
        ).join(', '),
      // In demo mode the operations system is the sandbox `npm start` started.
      '  Sandbox        npm run sandbox -- help (steer the operations system above: create, advance, customs...)',
    );
  }
  return lines.join('\n');
}

export function logStartupBanner(config: AppConfig): void {
  new Logger('Startup').log(startupBanner(config));
}
