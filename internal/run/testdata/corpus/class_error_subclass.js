class HttpError extends Error {
  constructor(status, message, options) {
    super(message, options);
    this.name = 'HttpError';
    this.status = status;
  }
}
class NotFound extends HttpError { constructor(what) { super(404, `${what} not found`); this.name = 'NotFound'; } }
const e = new NotFound('page');
const withCause = new HttpError(500, 'outer', { cause: new Error('inner') });
return [e instanceof NotFound, e instanceof HttpError, e instanceof Error, e.name, e.message, e.status, String(e),
  withCause.cause.message, Object.prototype.toString.call(e)];
