/** One public-API request as the request log shows it (bodies already masked). */
export interface RequestLogJson {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  site_id: string | null;
  request_body: string | null;
  response_body: string | null;
  created_at: string;
}
