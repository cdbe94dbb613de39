/**
 * What the black-box suite is pointed at, read once from the environment (the README's "Testing
 * your deployment" lists the variables). Only the URL and a user are required; every other part
 * runs when its variables are set and says what it needs when they are not.
 */
export interface Credentials {
  username: string;
  password: string;
}

export interface RemoteConfig {
  /** The deployment's origin, without a trailing slash. */
  baseUrl: string;
  /** A customer user: the suite reads, subscribes and (with the sandbox) acts as this user. */
  user: Credentials;
  /** A user of another customer, for the cross-customer checks; null skips them. */
  otherUser: Credentials | null;
  /** The sandbox's control API, which drives the scenarios; null runs the read-only part only. */
  sandbox: { url: string; apiKey: string } | null;
  /** The customer the sandbox creates processes for: the user's own. */
  sandboxCustomer: string;
  /** The deployment's access-token lifetime when short enough to wait for (`JWT_EXPIRES_IN`). */
  shortTokenSeconds: number | null;
  /** An origin the deployment lists in `CORS_ORIGINS`; null checks only that others are refused. */
  corsOrigin: string | null;
  /** The address the suite's webhook receiver listens on, and the URL the deployment reaches it by. */
  receiver: { host: string; publicUrl: string | null };
  /** Whether to spend ten failed logins of this address's fifty a quarter-hour on the login limit. */
  failedLoginLimit: boolean;
}

export function readRemoteConfig(env: NodeJS.ProcessEnv = process.env): RemoteConfig {
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') {
      throw new Error(
        `${name} is not set: the remote suite needs the deployment's URL and a user (see the README's "Testing your deployment")`,
      );
    }
    return value;
  };
  const optional = (name: string): string | null =>
    env[name] === undefined || env[name] === '' ? null : env[name];
  const sandboxUrl = optional('E2E_SANDBOX_URL');
  const shortToken = optional('E2E_SHORT_TOKEN_SECONDS');
  if (shortToken !== null && !/^\d+$/.test(shortToken)) {
    throw new Error(
      `E2E_SHORT_TOKEN_SECONDS must be the deployment's JWT_EXPIRES_IN in seconds, not "${shortToken}"`,
    );
  }
  const otherUsername = optional('E2E_OTHER_USERNAME');
  return {
    baseUrl: required('E2E_BASE_URL').replace(/\/+$/, ''),
    user: { username: required('E2E_USERNAME'), password: required('E2E_PASSWORD') },
    otherUser:
      otherUsername === null ? null : { username: otherUsername, password: required('E2E_OTHER_PASSWORD') },
    sandbox:
      sandboxUrl === null
        ? null
        : { url: sandboxUrl.replace(/\/+$/, ''), apiKey: required('E2E_SANDBOX_KEY') },
    sandboxCustomer: optional('E2E_SANDBOX_CUSTOMER') ?? required('E2E_USERNAME'),
    shortTokenSeconds: shortToken === null ? null : Number(shortToken),
    corsOrigin: optional('E2E_CORS_ORIGIN'),
    receiver: {
      host: optional('E2E_WEBHOOK_RECEIVER_HOST') ?? '127.0.0.1',
      publicUrl: optional('E2E_WEBHOOK_RECEIVER_URL'),
    },
    failedLoginLimit: optional('E2E_FAILED_LOGIN_LIMIT') === 'on',
  };
}

export const remoteConfig = readRemoteConfig();
