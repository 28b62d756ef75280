/**
 * What a logo upload may be (PUT /api/v1/admin/<kind>s/logo): the API's checks, its OpenAPI
 * entry and the admin's file picker read these; no Node module here, so the browser can too.
 * The server reads an image's real type from its bytes (logo-image.ts).
 */
export const LOGO_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml', 'image/avif', 'application/octet-stream'] as const;

/** The largest logo file or download accepted. */
export const MAX_LOGO_BYTES = 1024 * 1024;
