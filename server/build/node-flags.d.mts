export declare const serviceNodeFlags: string[];
export declare const serviceEnvironment: Record<string, string>;
