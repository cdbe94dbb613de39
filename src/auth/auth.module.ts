import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app.config.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AccessResolver } from './access/access-resolver.js';
import { ScopeGuard } from './access/scope.guard.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { ClientAccessService } from './clients/client-access.service.js';
import { ClientLastUse } from './clients/client-last-use.js';
import { ClientsController } from './clients/clients.controller.js';
import { ClientsRepository } from './clients/clients.repository.js';
import { ClientsService } from './clients/clients.service.js';
import { AccessTokenIssuer } from './jwt/access-token-issuer.js';
import { jwtOptionsOf } from './jwt/jwt-options.js';
import { JwtStrategy } from './jwt/jwt.strategy.js';
import { VerifiedTokens } from './jwt/verified-tokens.js';
import { AuthorizationServerMetadataController } from './oauth/authorization-server-metadata.controller.js';
import { TokenController } from './oauth/token.controller.js';
import { TokenService } from './oauth/token.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';
import { UserAccessService } from './users/user-access.service.js';
import { UsersRepository } from './users/users.repository.js';
import { SignInStatus } from './sign-ins/sign-in-status.service.js';
import { SignInsRepository } from './sign-ins/sign-ins.repository.js';
import { ClockModule } from '../common/clock.module.js';
import { VisibilityModule } from '../visibility/visibility.module.js';

@Module({
  imports: [
    PassportModule,
    ClockModule,
    RateLimitModule,
    VisibilityModule,
    JwtModule.registerAsync({ inject: [AppConfig], useFactory: jwtOptionsOf }),
  ],
  controllers: [AuthController, ClientsController, TokenController, AuthorizationServerMetadataController],
  providers: [
    AuthService,
    PasswordHasher,
    UsersRepository,
    SignInsRepository,
    SignInStatus,
    UserAccessService,
    ClientsRepository,
    ClientsService,
    ClientAccessService,
    ClientLastUse,
    AccessResolver,
    AccessTokenIssuer,
    TokenService,
    JwtStrategy,
    VerifiedTokens,
    ScopeGuard,
    RequireJsonGuard,
  ],
  // The global guards, provided by the root module, read the verified tokens and resolve them.
  exports: [UsersRepository, PasswordHasher, VerifiedTokens, UserAccessService, AccessResolver],
})
export class AuthModule {}
