const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether text is a UUID (every row id): checked before a lookup, so other text answers as "not found". */
export const isUuid = (value: string): boolean => UUID.test(value);
