declare const __VTR_VERSION__: string | undefined;

/** Injected at build time (tsup/vitest `define`) from package.json. */
export const VERSION: string = typeof __VTR_VERSION__ !== 'undefined' ? __VTR_VERSION__ : '0.0.0-dev';
