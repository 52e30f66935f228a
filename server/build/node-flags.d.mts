export declare const serviceNodeFlags: string[];
