//! The builtins written in jq itself, parsed before the program.

/// Definitions made global before the user's program is parsed.
pub const PRELUDE: &str = r#"
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type == "array" or type == "object");
def scalars: select(type != "array" and type != "object");
def map(f): [.[] | f];
def map_values(f): .[] |= f;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: reduce .[] as $x ({};
    . + { ($x | if type == "object" then
                  (if has("key") then .key elif has("k") then .k elif has("name") then .name elif has("Name") then .Name elif has("Key") then .Key elif has("K") then .K else null end)
                else . end
             | if type == "string" then . elif type == "null" then "null" elif type == "boolean" or type == "number" then tojson else error("Cannot use \(type) (\(tojson)) as object key") end):
          ($x | if type == "object" then (if has("value") then .value elif has("v") then .v elif has("Value") then .Value elif has("V") then .V else null end) else null end) });
def with_entries(f): to_entries | map(f) | from_entries;
def del(f): delpaths([path(f)]);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not)));
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def join($x): reduce .[] as $i (null; (if . == null then "" else . + $x end) + ($i | if . == null then "" elif type == "string" then . elif type == "boolean" or type == "number" then tojson else error("Cannot join with \(type)") end)) // "";
def ascii_downcase: explode | map(if 65 <= . and . <= 90 then . + 32 end) | implode;
def ascii_upcase: explode | map(if 97 <= . and . <= 122 then . - 32 end) | implode;
def todate(f): strftime(f);
def indices($i): if type == "array" and ($i | type) == "array" then .[$i]
  elif type == "array" then .[[$i]]
  elif type == "string" and ($i | type) == "string" then _strindices($i)
  else .[$i] end;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def capture(re; $flags): match(re; $flags) | [.captures | .[] | select(.name != null) | { key: .name, value: .string }] | from_entries;
def scan($re; $flags): match($re; "g" + $flags) | if (.captures | length) > 0 then [ .captures | .[] | .string ] else .string end;
def test(re; $flags): _match_impl(re; $flags; true);
def match(re; $flags): _match_impl(re; $flags; false) | .[];
def splits($re; $flags): split($re; $flags) | .[];
def split($re; $flags): . as $s | [foreach (match($re; "g" + $flags), null) as $m ({i: 0, prev: 0};
    if $m == null then .out = $s[.prev:] else .out = $s[.prev:$m.offset] | .prev = $m.offset + $m.length end;
    .out)];
def sub(re; str; $flags): _sub_impl(re; str; $flags);
def ascii: [.] | implode;
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def limit($n; f): if $n > 0 then label $out | foreach f as $item (0; . + 1; $item, if . >= $n then break $out else empty end) elif $n == 0 then empty else f end;
def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
def repeat(f): def _repeat: f | (., _repeat); _repeat;
def range($x): range(0; $x);
def range($from; $upto; $by): _range3($from; $upto; $by);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def ltrimstr($x): if type == "string" and ($x | type) == "string" and startswith($x) then .[($x | length):] else . end;
def rtrimstr($x): if type == "string" and ($x | type) == "string" and endswith($x) and ($x | length) > 0 then .[:length - ($x | length)] else . end;
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def env: $ENV;
def halt_error: halt_error(5);
def add: reduce .[] as $x (null; . + $x);
def first(f): label $first | (f | ., break $first);
def isempty(g): label $go | (g | false, break $go), true;
def abs: if type == "number" and . < 0 then - . else . end;
def toarray: if type == "array" then . else [.] end;
def have_decnum: false;
def transpose: if . == [] then [] else . as $rows | (map(length) | max) as $w | [range(0; $w) as $c | [range(0; $rows | length) as $r | $rows[$r][$c]]] end;
def toboolean: if type == "boolean" then . elif . == "true" then true elif . == "false" then false else error("\(type) (\(tojson)) cannot be parsed as a boolean") end;
def trimstr($x): ltrimstr($x) | rtrimstr($x);
def add(f): reduce f as $x (null; . + $x);
def skip($n; f): if $n > 0 then foreach f as $item ($n; . - 1; if . < 0 then $item else empty end) elif $n == 0 then f else error("skip doesn't support negative count") end;
def bsearch($target): if length == 0 then -1 elif length == 1 then (if $target == .[0] then 0 elif $target < .[0] then -1 else -2 end)
  else . as $in | [0, length - 1] | until(.[0] > .[1]; (((.[0] + .[1]) / 2) | floor) as $mid | if $in[$mid] == $target then [$mid, -1] | .[1] = .[0] - 1 | .[2] = true elif $in[$mid] < $target then .[0] = $mid + 1 else .[1] = $mid - 1 end)
  | if .[2] then .[0] else -1 - .[0] end end;
def getpath_safe(p): getpath(p);
def have_literal_numbers: true;
def input_line_number: _input_line_number;
def min_by(f): _min_by(map([f]));
def max_by(f): _max_by(map([f]));
def sort_by(f): _sort_by(map([f]));
def group_by(f): _group_by(map([f]));
def unique_by(f): _unique_by(map([f]));
def unique: unique_by(.);
def significand: if . == 0 then 0 else frexp | .[0] * 2 end;
def logb: if . == 0 then -infinite else frexp | .[1] - 1 end;
def gamma: lgamma;
def drem($a; $b): $a - ($b * (($a / $b) | rint));
def ldexp($a; $b): $a * pow(2; $b);
def scalb($a; $b): $a * pow(2; $b);
def scalbln($a; $b): $a * pow(2; $b);
def nearbyint: rint;
def exp10: pow(10; .);
def pow10: pow(10; .);
def get_search_list: [];
def capture(re): capture(re; null);
def scan($re): scan($re; null);
def test(re): test(re; null);
def match(re): match(re; null);
def splits($re): splits($re; null);
def gsub(re; str; $flags): sub(re; str; $flags + "g");
def sub(re; str): sub(re; str; "");
def gsub(re; str): sub(re; str; "g");
"#;
