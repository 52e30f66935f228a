export declare const root: string;
export declare const distEntry: string;
export declare function loadCompiler(): Promise<typeof import('esbuild') | null>;
export declare function buildService(esbuild: typeof import('esbuild')): Promise<number>;
export declare const libraryEntry: string;
export declare const libraryTypes: string;
export declare function buildLibrary(esbuild: typeof import('esbuild')): Promise<void>;
export declare function buildLibraryTypes(): Promise<boolean>;
