export declare const root: string;
export declare const distEntry: string;
export declare function loadCompiler(): Promise<typeof import('esbuild') | null>;
export declare function buildService(esbuild: typeof import('esbuild')): Promise<number>;
