import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/app.config.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import type { LoginResponseDto } from './dto/login.response.dto.js';
import { PasswordHasher } from './password-hasher.service.js';
import { UsersRepository } from './users/users.repository.js';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  /** Unknown user, wrong password and disabled user are one answer, after the same hash work. */
  async login(username: string, password: string): Promise<LoginResponseDto> {
    const user = await this.users.findByUsername(username);
    const passwordMatches = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (user === null || !passwordMatches || !user.active) {
      throw new ProblemException(PROBLEM_TYPES.invalidCredentials, {
        detail: 'The user name or password is incorrect',
      });
    }
    const accessToken = await this.jwt.signAsync({ sub: user.id }, { jwtid: randomUUID() });
    return { accessToken, tokenType: 'Bearer', expiresIn: this.config.jwt.expiresInSeconds };
  }
}
