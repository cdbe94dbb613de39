/** A control call the sandbox refuses, with the HTTP status it answers. */
export class ControlError extends Error {
  override readonly name = 'ControlError';

  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    /** For a 400: the member of the body that is wrong. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const notFound = (numero: string): ControlError =>
  new ControlError(404, `No process ${numero} in the sandbox (or it has not opened yet)`);

export const conflict = (message: string): ControlError => new ControlError(409, message);

export const invalid = (field: string, message: string): ControlError =>
  new ControlError(400, message, field);
