/** The small pages of the admin that are not the app (sign-in and install problems), in the app's look. */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page in the app's look (the app itself is not loaded). */
export function plainPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Gift campaigns</title>
<style>body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"San Francisco","Segoe UI",Roboto,sans-serif;background:#f1f1f1;color:#303030}
main{max-width:32rem;margin:10vh auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 0 rgba(0,0,0,.07)}
h1{font-size:1.25rem;margin:0 0 .5rem}code{background:#f1f1f1;padding:.1rem .3rem;border-radius:4px}
button{font:inherit;padding:.4rem 1rem;border-radius:8px;border:0;background:#303030;color:#fff;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`;
}

