/**
 * Why an archive or document was refused. Thrown inside parse workers (which load nothing of the API's, so this
 * class stands alone) and carried back to the request as a plain object.
 */
export type RefusalReason =
  /** more entries than allowed */
  | 'entries'
  /** an entry, or all of them together, would inflate past the limit */
  | 'bytes'
  /** an entry inflates too many times over its compressed size */
  | 'ratio'
  /** more rows than allowed */
  | 'rows'
  /** the parse reached its worker's memory cap */
  | 'memory'
  /** the parse ran past its time */
  | 'time'
  /** an entry inflated to more than its header declared: the archive lies about its content */
  | 'declared'
  /** an entry's name is absolute, climbs out with `..`, or holds a backslash or NUL */
  | 'name'
  /** an entry is a symbolic link, which could point anywhere once extracted */
  | 'link'
  /** an entry is encrypted */
  | 'encrypted'
  /** the file has no bytes at all */
  | 'empty'
  /** not an archive or document of the expected kind, or damaged */
  | 'unreadable';

export interface RefusalData {
  reason: RefusalReason;
  /** the limit's value, when the reason is a limit */
  max?: number;
}

export class ArchiveRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly max?: number,
  ) {
    super(max === undefined ? `archive refused: ${reason}` : `archive refused: ${reason} (at most ${max})`);
    this.name = 'ArchiveRefusal';
  }

  toData(): RefusalData {
    return this.max === undefined ? { reason: this.reason } : { reason: this.reason, max: this.max };
  }
}
