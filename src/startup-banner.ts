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
  ];
  const { baseUrl } = config.operations;
  if (baseUrl !== null) {
    // In demo mode the operations system is the sandbox `npm start` started beside the service.
    lines.push(
      config.demoMode
        ? `  Sandbox        ${baseUrl} (the operations system; steer it with npm run sandbox -- help)`
        : `  Operations     ${baseUrl}`,
    );
  }
  if (config.demoMode) {
    lines.push(
      '  Demo users     ' +
        DEMO_USERS.map(
          (user) =>
            `${user.username} / ${user.password} (${user.role === 'staff' ? 'staff' : user.customerIds.join(', ')})`,
        ).join(', '),
    );
  }
  return lines.join('\n');
}

export function logStartupBanner(config: AppConfig): void {
  new Logger('Startup').log(startupBanner(config));
}
