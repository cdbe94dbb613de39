import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';
import { RedisConnection } from './redis.connection.js';

@Global()
@Module({
  providers: [
    {
      provide: RedisConnection,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => RedisConnection.connect(config.redisUrl),
    },
  ],
  exports: [RedisConnection],
})
export class RedisModule {}
