import { HttpException } from '@nestjs/common';
import { PROBLEM_TYPES, type FieldError, type ProblemType } from './problem-types.js';

/** A problem type of {@link PROBLEM_TYPES}, or one defined beside the only route that answers it. */
export type ProblemDefinition =
  ProblemType | { readonly type: `/problems/${string}`; readonly title: string; readonly status: number };

export interface ProblemOptions {
  detail?: string;
  /** Response headers the problem calls for (`Retry-After`, `Allow`, `WWW-Authenticate`...). */
  headers?: Record<string, string>;
  /** Extension members of the body (e.g. `successors` of a retired endpoint). */
  extensions?: Record<string, unknown>;
  /**
   * Another media type than `application/problem+json`, for a body another standard's clients must
   * read (the OAuth token endpoint's errors are `application/json`).
   */
  contentType?: string;
  cause?: unknown;
}

/**
 * An error answer of a known problem type. Thrown anywhere; shaped into problem+json once,
 * by {@link ProblemDetailsFilter}.
 */
export class ProblemException extends HttpException {
  constructor(
    readonly problem: ProblemDefinition,
    readonly problemOptions: ProblemOptions = {},
  ) {
    super(problemOptions.detail ?? problem.title, problem.status, { cause: problemOptions.cause });
  }
}

/** A 400 listing every offending field. */
export class InvalidRequestException extends ProblemException {
  constructor(readonly errors: FieldError[]) {
    super(PROBLEM_TYPES.invalidRequest, { detail: summarize(errors) });
  }
}

function summarize(errors: FieldError[]): string {
  return errors.map((error) => `${error.name} ${error.message}`).join('; ');
}
