import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';
import { HttpLogger } from './http-logger.js';
import { PinoNestLogger } from './pino-nest-logger.js';
import { createRootLogger, LOG_DESTINATION, ROOT_LOGGER } from './root-logger.js';

/**
 * Structured logs (pino): one root instance, which every `Logger` of the application
 * (`new Logger(X.name)`) writes through ({@link PinoNestLogger}, installed by `configureApp`).
 * The request logger ({@link HttpLogger}) is mounted by `configureApp` right after the request
 * id, ahead of every other middleware, so that requests refused by a parser are logged too; it
 * also sets the request context that puts the request id on every line.
 */
@Module({
  providers: [
    { provide: LOG_DESTINATION, useValue: null },
    { provide: ROOT_LOGGER, inject: [AppConfig, LOG_DESTINATION], useFactory: createRootLogger },
    HttpLogger,
    PinoNestLogger,
  ],
  exports: [ROOT_LOGGER, HttpLogger, PinoNestLogger],
})
export class LoggingModule {}
