import { Module } from '@nestjs/common';
import { PasswordHasher } from '../auth/password-hasher.service.js';
import { UsersRepository } from '../auth/users/users.repository.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { UsersCommand } from './users.command.js';

/**
 * What the users command line needs and no more: the validated configuration, the migrated
 * database and the two stateless auth services, without the HTTP side of AuthModule (JWT, passport).
 */
@Module({
  imports: [ConfigModule, DatabaseModule],
  providers: [UsersRepository, PasswordHasher, UsersCommand],
})
export class UsersCliModule {}
