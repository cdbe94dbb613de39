import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app.config.js';
import { classifyAddress } from './address-classes.js';
import { HostResolver, type ResolvedAddress } from './host-resolver.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Why a target was refused, in words for the subscription's owner. */
export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
}

/**
 * Where webhooks may be sent: `https://` (and `http://` when `WEBHOOK_ALLOW_HTTP`), to public
 * addresses (and private ones when `WEBHOOK_ALLOW_PRIVATE_TARGETS`), never link-local or
 * unspecified. Checked on the URL at creation, and on every address a delivery connects to.
 */
@Injectable()
export class WebhookTargetPolicy {
  constructor(
    private readonly config: AppConfig,
    private readonly resolver: HostResolver,
  ) {}

  /** What is wrong with the URL itself (scheme, credentials, form), or null. */
  urlProblem(value: string): string | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'must be an absolute URL';
    }
    const schemes = this.config.webhooks.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol)) {
      return this.config.webhooks.allowHttp
        ? 'must be an https:// or http:// URL'
        : 'must be an https:// URL';
    }
    if (url.username !== '' || url.password !== '') return 'must not carry credentials';
    if (url.hash !== '') return 'must not have a fragment';
    return null;
  }

  /** What is wrong with connecting to this address, or null. */
  addressProblem(address: string): string | null {
    switch (classifyAddress(address)) {
      case 'public':
        return null;
      case 'private':
        return this.config.webhooks.allowPrivateTargets
          ? null
          : `leads to a loopback, private, multicast or reserved address (${address})`;
      case 'forbidden':
        return `leads to a link-local or unspecified address (${address})`;
      case null:
        return `is not an IP address (${address})`;
    }
  }

  /**
   * The addresses of the URL's host a delivery may connect to; throws {@link TargetRefusedError}
   * when the URL is refused, the host does not resolve, or any of its addresses is refused.
   */
  async permittedAddresses(value: string): Promise<ResolvedAddress[]> {
    const problem = this.urlProblem(value);
    if (problem !== null) throw new TargetRefusedError(problem);
    return this.hostAddresses(hostOf(new URL(value)));
  }

  /** The addresses of `host` (a name or an IP literal), each checked; throws as {@link permittedAddresses}. */
  async hostAddresses(host: string): Promise<ResolvedAddress[]> {
    const family = isIP(host);
    let addresses: ResolvedAddress[];
    if (family !== 0) {
      addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolver.resolve(host);
      } catch {
        throw new TargetRefusedError(`host ${host} does not resolve`);
      }
    }
    for (const { address } of addresses) {
      const refused = this.addressProblem(address);
      if (refused !== null) throw new TargetRefusedError(refused);
    }
    if (addresses.length === 0) throw new TargetRefusedError(`host ${host} does not resolve`);
    return addresses;
  }
}

/** The URL's host as a resolver or `isIP` takes it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
