/** The success envelope of the management API. */
export function ok(data?: unknown, message = ''): { success: true; message: string; data?: unknown } {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}
