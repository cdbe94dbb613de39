import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { JsonText } from './json-text.js';

/**
 * Sends a handler's `JsonText` as the JSON bytes it already is: Express's `json()` would serialise
 * the wrapper object instead. Any other body passes through untouched.
 */
@Injectable()
export class JsonTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof JsonText)) return body;
        response.setHeader('Content-Type', 'application/json; charset=utf-8');
        return body.bytes;
      }),
    );
  }
}
