// Relative asset URLs, so the build works from any folder it is served from.
export default {
  base: './',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true },
};
