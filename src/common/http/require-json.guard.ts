import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ProblemException } from '../problems/problem.exception.js';
import { PROBLEM_TYPES } from '../problems/problem-types.js';

/** Refuses a body that is not `application/json` with 415 before it is validated as empty. */
@Injectable()
export class RequireJsonGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.is('application/json') === 'application/json') return true;
    throw new ProblemException(PROBLEM_TYPES.unsupportedMediaType, {
      detail: 'The request body must be application/json',
    });
  }
}
