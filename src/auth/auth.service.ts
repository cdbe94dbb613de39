import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/app.config.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { LoginRateLimiter } from '../rate-limit/login-rate-limiter.js';
import type { LoginResponseDto } from './dto/login.response.dto.js';
import { ACCESS_TOKEN_TYPE, JWT_ALGORITHM } from './jwt/jwt.strategy.js';
import { PasswordHasher } from './password-hasher.service.js';
import { UsersRepository, type UserRecord } from './users/users.repository.js';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
    private readonly limiter: LoginRateLimiter,
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
      throw new ProblemException(PROBLEM_TYPES.invalidCredentials, {
        detail: 'The user name or password is incorrect',
      });
    }
    await attempt.succeeded();
    // The header says what kind of token this is: set here, not as a JwtService default, so that
    // no other token the same service signs could pass for an access token.
    const accessToken = await this.jwt.signAsync(
      { sub: user.id },
      { jwtid: randomUUID(), header: { alg: JWT_ALGORITHM, typ: ACCESS_TOKEN_TYPE } },
    );
    return { accessToken, tokenType: 'Bearer', expiresIn: this.config.jwt.expiresInSeconds };
  }
}
