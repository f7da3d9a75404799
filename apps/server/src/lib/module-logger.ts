/** What a module needs of the server's logger; pino's child loggers are one. */
export interface ModuleLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
