import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app.config.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { jwtOptionsOf } from './jwt/jwt-options.js';
import { JwtStrategy } from './jwt/jwt.strategy.js';
import { VerifiedTokens } from './jwt/verified-tokens.js';
import { PasswordHasher } from './password-hasher.service.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';
import { UserAccessService } from './users/user-access.service.js';
import { UsersRepository } from './users/users.repository.js';
import { SignInsRepository } from './sign-ins/sign-ins.repository.js';
import { ClockModule } from '../common/clock.module.js';

@Module({
  imports: [
    PassportModule,
    ClockModule,
    RateLimitModule,
    JwtModule.registerAsync({ inject: [AppConfig], useFactory: jwtOptionsOf }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    PasswordHasher,
    UsersRepository,
    SignInsRepository,
    UserAccessService,
    JwtStrategy,
    VerifiedTokens,
    RequireJsonGuard,
  ],
  // The global JWT guard, provided by the root module, reads the verified tokens and the users.
  exports: [UsersRepository, PasswordHasher, VerifiedTokens, UserAccessService],
})
export class AuthModule {}
