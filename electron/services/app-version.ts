declare const WALKBENCH_VERSION: string | undefined;

/** The version the build stamped in (build/build-node.mjs); `development` when run from source. */
export function appVersion(): string {
  return typeof WALKBENCH_VERSION === 'string' ? WALKBENCH_VERSION : 'development';
}
