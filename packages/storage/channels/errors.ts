/**
 * Errors of channels.yaml and channels.db, each with a stable code. None carries a token.
 *
 * @module
 */
import { StorageError } from "../errors.ts";

/** Codes of {@linkcode ChannelsConfigError}. */
export type ChannelsConfigErrorCode =
  | "channels_config_unreadable"
  | "channels_config_too_large"
  | "channels_config_invalid"
  | "channels_config_unwritable";

/** channels.yaml cannot be read, is too large, does not match its schema, or cannot be written. */
export class ChannelsConfigError extends StorageError {
  /** The file. */
  readonly path: string;

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param path the file
   * @param message a sentence naming the file and the rule (never the token)
   * @param options the original error as `cause`
   */
  constructor(
    code: ChannelsConfigErrorCode,
    path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.name = "ChannelsConfigError";
    this.path = path;
  }
}

/** Codes of {@linkcode ChannelsDatabaseError}. */
export type ChannelsDatabaseErrorCode = "channels_db_unreadable" | "channels_db_incompatible";

/** channels.db cannot be opened, or its schema is not this code's (reset required). */
export class ChannelsDatabaseError extends StorageError {
  /** The database file. */
  readonly path: string;

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param path the database file
   * @param message a sentence naming the file
   * @param options the original error as `cause`
   */
  constructor(
    code: ChannelsDatabaseErrorCode,
    path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.name = "ChannelsDatabaseError";
    this.path = path;
  }
}
