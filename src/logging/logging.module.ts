import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app.config.js';
import { HttpLogger } from './http-logger.js';
import { createRootLogger, LOG_DESTINATION, ROOT_LOGGER, type RootLogger } from './root-logger.js';

@Module({
  providers: [
    { provide: LOG_DESTINATION, useValue: null },
    { provide: ROOT_LOGGER, inject: [AppConfig, LOG_DESTINATION], useFactory: createRootLogger },
    HttpLogger,
  ],
  exports: [ROOT_LOGGER, HttpLogger],
})
class RootLoggerModule {}

/**
 * Structured logs (pino). nestjs-pino routes every `Logger` of the application
 * (`new Logger(X.name)`) to the one pino instance. Its own middleware is not mounted: the request
 * logger ({@link HttpLogger}) is mounted by `configureApp` right after the request id, ahead of
 * every other middleware so that requests refused by a parser are logged too, and sets the
 * request context; Nest's module middleware would also be a catch-all route, which Express 5
 * reports as serving every method on every path (and so would break 404/405).
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      useFactory: (root: RootLogger) => ({
        pinoHttp: { logger: root, wrapSerializers: false },
        useExisting: true,
        forRoutes: [],
      }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
