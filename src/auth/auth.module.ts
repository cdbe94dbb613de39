import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app.config.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { JWT_ALGORITHM, JwtStrategy } from './jwt/jwt.strategy.js';
import { PasswordHasher } from './password-hasher.service.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';
import { UserAccessService } from './users/user-access.service.js';
import { UsersRepository } from './users/users.repository.js';

@Module({
  imports: [
    PassportModule,
    RateLimitModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: config.jwt.secret,
        signOptions: {
          algorithm: JWT_ALGORITHM,
          expiresIn: config.jwt.expiresInSeconds,
          issuer: config.jwt.issuer,
          audience: config.jwt.audience,
        },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, PasswordHasher, UsersRepository, UserAccessService, JwtStrategy, RequireJsonGuard],
  exports: [UsersRepository, PasswordHasher],
})
export class AuthModule {}
