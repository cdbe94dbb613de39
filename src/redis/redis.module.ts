import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';
import { RedisConnection } from './redis.connection.js';
import { DEFAULT_REDIS_KEY_PREFIX, REDIS_KEY_PREFIX } from './redis-key-prefix.js';

@Global()
@Module({
  providers: [
    {
      provide: RedisConnection,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => RedisConnection.connect(config.redisUrl),
    },
    { provide: REDIS_KEY_PREFIX, useValue: DEFAULT_REDIS_KEY_PREFIX },
  ],
  exports: [RedisConnection, REDIS_KEY_PREFIX],
})
export class RedisModule {}
