// The error both benchmark baselines throw for a status other than 200 (their bodies use the API's error shape).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
