import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/app.config.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { LoginRateLimiter } from '../rate-limit/login-rate-limiter.js';
import type { LoginResponseDto } from './dto/login.response.dto.js';
import { AccessTokenIssuer } from './jwt/access-token-issuer.js';
import { PasswordHasher } from './password-hasher.service.js';
import { SignInStatus } from './sign-ins/sign-in-status.service.js';
import { SignInsRepository } from './sign-ins/sign-ins.repository.js';
import { UsersRepository, type UserRecord } from './users/users.repository.js';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly issuer: AccessTokenIssuer,
    private readonly config: AppConfig,
    private readonly limiter: LoginRateLimiter,
    private readonly signIns: SignInsRepository,
    private readonly signInStatus: SignInStatus,
    private readonly clock: Clock,
  ) {}

  /**
   * Unknown user, wrong password and disabled user are one answer, after the same hash work, and
   * count alike towards the failed-login limit, which is checked first (`clientAddress` is the
   * request's, as `TRUST_PROXY` says).
   */
  async login(
    username: string,
    password: string,
    clientAddress: string | undefined,
  ): Promise<LoginResponseDto> {
    const attempt = await this.limiter.begin(username, clientAddress);
    let user: UserRecord | null;
    let passwordMatches: boolean;
    try {
      user = await this.users.findByUsername(username);
      passwordMatches = await this.hasher.verify(user?.passwordHash ?? null, password);
    } catch (error) {
      await attempt.abandon();
      throw error;
    }
    if (user === null || !passwordMatches || !user.active) {
      throw invalidCredentials('The user name or password is incorrect');
    }
    await attempt.succeeded();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.jwt.refreshExpiresInSeconds * 1000);
    const refreshToken = newRefreshToken();
    const signInId = await this.signIns.start(user.id, hashOf(refreshToken), now, expiresAt);
    return this.tokens(user.id, signInId, refreshToken, now, expiresAt);
  }

  /**
   * Exchanges a refresh token for a new pair (RFC 9700 4.14: rotated, single use). A token
   * presented a second time ends its whole sign-in (its access tokens included), but within a few
   * seconds of its first use (two tabs, a retry). Every refusal is the same 401 and counts as a
   * failure of the client address, as a failed login does.
   */
  async refresh(refreshToken: string, clientAddress: string | undefined): Promise<LoginResponseDto> {
    const attempt = await this.limiter.beginForAddress(clientAddress);
    const now = this.clock.now();
    const next = newRefreshToken();
    let userActive = false;
    let rotation: Awaited<ReturnType<SignInsRepository['rotate']>>;
    try {
      rotation = await this.signIns.rotate(hashOf(refreshToken), hashOf(next), now);
      if (rotation.outcome === 'rotated')
        userActive = (await this.users.findById(rotation.userId))?.active ?? false;
    } catch (error) {
      await attempt.abandon();
      throw error;
    }
    if (rotation.outcome === 'reused') this.signInStatus.markEnded(rotation.signInId);
    if (rotation.outcome !== 'rotated' || !userActive) {
      throw invalidCredentials('The refresh token is unknown, spent, expired or revoked: sign in again');
    }
    await attempt.succeeded();
    return this.tokens(rotation.userId, rotation.signInId, next, now, rotation.expiresAt);
  }

  /** Ends the sign-in the refresh token belongs to, its access tokens included. */
  async logout(refreshToken: string, clientAddress: string | undefined): Promise<void> {
    const attempt = await this.limiter.beginForAddress(clientAddress);
    let ended: string | null;
    try {
      ended = await this.signIns.endByToken(hashOf(refreshToken), this.clock.now());
    } catch (error) {
      await attempt.abandon();
      throw error;
    }
    if (ended === null) throw invalidCredentials('The refresh token is unknown');
    this.signInStatus.markEnded(ended);
    await attempt.succeeded();
  }

  private async tokens(
    userId: string,
    signInId: string,
    refreshToken: string,
    now: Date,
    signInEnds: Date,
  ): Promise<LoginResponseDto> {
    return {
      accessToken: await this.issuer.forUser(userId, signInId),
      tokenType: 'Bearer',
      expiresIn: this.config.jwt.expiresInSeconds,
      refreshToken,
      refreshExpiresIn: Math.max(0, Math.floor((signInEnds.getTime() - now.getTime()) / 1000)),
    };
  }
}

function invalidCredentials(detail: string): ProblemException {
  return new ProblemException(PROBLEM_TYPES.invalidCredentials, { detail });
}

/** 256 random bits, opaque to the client. */
function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Refresh tokens are stored as this hash only; with 256 random bits, a fast hash is enough. */
function hashOf(refreshToken: string): string {
  return createHash('sha256').update(refreshToken).digest('base64url');
}
