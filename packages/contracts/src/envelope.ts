/** The management API envelope: every `/api` answer has this shape. */
export interface ApiResponse<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

/** Paged lists put this object in `data`. */
export interface Paged<T> {
  data: T[];
  page: number;
  size: number;
  total_count: number;
}
