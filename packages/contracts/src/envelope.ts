/** The management API envelope: every `/api` answer has this shape. */
export interface ApiResponse<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
  /** On a refusal about one input field: its name or path (`price.input`), where a form shows the message. */
  field?: string;
}

/** Paged lists put this object in `data`. */
export interface Paged<T> {
  data: T[];
  page: number;
  size: number;
  total_count: number;
}
