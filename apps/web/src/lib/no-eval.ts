import { config } from 'zod';

// The console's Content-Security-Policy allows no eval. zod is told so instead of finding out by trying
// `new Function` on the first parse, a try the browser reports as a policy violation. Imported first by
// main.tsx, before any schema is used.
config({ jitless: true });
