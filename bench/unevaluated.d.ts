// The types of unevaluated.js, for test/bench/unevaluated.test.ts.
import type { JsonObject } from "../generator/json.js";

export type Keyword = "properties" | "items" | "both";
export declare function unevaluatedSchema(k: number, keyword: Keyword): JsonObject;
