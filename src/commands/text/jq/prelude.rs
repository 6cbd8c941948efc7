//! The builtins written in jq itself, parsed before the program. They
//! behave as jq 1.7.1's do (including its error texts and corner cases);
//! a few from later jq versions are added (`toboolean`, `trim`, `abs`...).

/// Definitions made global before the user's program is parsed (calls may
/// refer to definitions further down).
pub const PRELUDE: &str = r#"
def error(msg): msg | error;
def map(f): [.[] | f];
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type | . == "array" or . == "object");
def scalars: select(type | . != "array" and . != "object");
def isfinite: type == "number" and (isinfinite | not);
def finites: select(isfinite);
def normals: select(isnormal);
def sort_by(f): _sort_by(map([f]));
def group_by(f): _group_by(map([f]));
def unique: group_by(.) | map(.[0]);
def unique_by(f): group_by(f) | map(.[0]);
def min_by(f): _min_by(map([f]));
def max_by(f): _max_by(map([f]));
def add: reduce .[] as $x (null; . + $x);
def add(f): reduce f as $x (null; . + $x);
def del(f): delpaths([path(f)]);
def abs: if type == "number" and . < 0 then - . else . end;
def map_values(f): .[] |= f;
def to_entries: _to_entries // [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: _from_entries // (map({(.key // .Key // .name // .Name): (if has("value") then .value else .Value end)}) | add | . //= {});
def with_entries(f): to_entries | map(f) | from_entries;
def reverse: [.[length - 1 - range(0; length)]];
def indices($i): if type == "array" and ($i | type) == "array" then .[$i]
  elif type == "array" then .[[$i]]
  elif type == "string" and ($i | type) == "string" then _strindices($i)
  else .[$i] end;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def paths: path(..) | select(length > 0);
def paths(node_filter): path(.. | select(node_filter)) | select(length > 0);
def leaf_paths: paths(scalars);
def join($x): reduce .[] as $i (null; (if . == null then "" else . + $x end) + ($i | if type == "boolean" or type == "number" then tostring else . // "" end)) // "";
def flatten($x): if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
def flatten: _flatten(-1);
def range($x): range(0; $x);
def range($from; $upto; $by): _range3($from; $upto; $by);
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdate: fromdateiso8601;
def todate: todateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def match(re; mode): _match_impl(re; mode; false) | .[];
def match($val): ($val | type) as $vt | if $vt == "string" then match($val; null)
  elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
  else error($vt + " not a string or array") end;
def test(re; mode): _match_impl(re; mode; true);
def test($val): ($val | type) as $vt | if $vt == "string" then test($val; null)
  elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
  else error($vt + " not a string or array") end;
def capture(re; mods): match(re; mods) | reduce (.captures | .[] | select(.name != null) | {(.name): .string}) as $pair ({}; . + $pair);
def capture($val): ($val | type) as $vt | if $vt == "string" then capture($val; null)
  elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null)
  else error($vt + " not a string or array") end;
def scan($re; $flags): match($re; "g" + $flags) | if (.captures | length > 0) then [.captures | .[] | .string] else .string end;
def scan($re): scan($re; null);
def _nwise($n): def n: if length <= $n then . else .[0:$n], (.[$n:] | n) end; n;
def _nwise(a; $n): a | _nwise($n);
def splits($re; flags): . as $s | [match($re; "g" + flags) | (.offset, .offset + .length)] | [0] + . + [$s | length] | _nwise(2) | $s[.[0]:.[1]];
def splits($re): splits($re; null);
def split($re; flags): [splits($re; flags)];
def sub($re; s; $flags): _sub_impl($re; s; $flags);
def sub($re; s): sub($re; s; "");
def gsub($re; s; flags): sub($re; s; flags + "g");
def gsub($re; s): sub($re; s; "g");
def ascii_downcase: explode | map(if 65 <= . and . <= 90 then . + 32 else . end) | implode;
def ascii_upcase: explode | map(if 97 <= . and . <= 122 then . - 32 else . end) | implode;
def ascii: [.] | implode;
def todate(f): strftime(f);
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
def until(cond; next): def _until: if cond then . else (next | _until) end; _until;
def limit($n; f): if $n > 0 then label $out | foreach f as $item ($n; . - 1; $item, if . <= 0 then break $out else empty end) elif $n == 0 then empty else f end;
def skip($n; f): if $n > 0 then foreach f as $item ($n; . - 1; if . < 0 then $item else empty end) elif $n == 0 then f else error("skip doesn't support negative count") end;
def first(g): label $out | g | ., break $out;
def isempty(g): first((g | false), true);
def all(generator; condition): isempty(generator | condition and empty);
def any(generator; condition): isempty(generator | condition or empty) | not;
def all(condition): all(.[]; condition);
def any(condition): any(.[]; condition);
def all: all(.[]; .);
def any: any(.[]; .);
def nth($n; g): if $n < 0 then error("nth doesn't support negative indices") else label $out | foreach g as $item ($n + 1; . - 1; if . <= 0 then $item, break $out else empty end) end;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y end;
def combinations(n): . as $dot | [range(n) | $dot] | combinations;
def transpose: [range(0; map(length) | max // 0) as $i | [.[][$i]]];
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def pick(pathexps): . as $in | reduce path(pathexps) as $a (null; setpath($a; $in | getpath($a)));
def debug(msgs): (msgs | debug | empty), .;
def env: $ENV;
def halt_error: halt_error(5);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): {x: null, e: false} as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] = $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def ltrimstr($x): if type == "string" and ($x | type) == "string" and startswith($x) then .[($x | length):] else . end;
def rtrimstr($x): if type == "string" and ($x | type) == "string" and ($x | length) > 0 and endswith($x) then .[:length - ($x | length)] else . end;
def trimstr($x): ltrimstr($x) | rtrimstr($x);
def toboolean: if type == "boolean" then . elif . == "true" then true elif . == "false" then false else error("\(type) (\(tojson)) cannot be parsed as a boolean") end;
def toarray: if type == "array" then . else [.] end;
def have_decnum: true;
def have_literal_numbers: true;
def input_line_number: _input_line_number;
def bsearch($target):
  if length == 0 then -1
  elif length == 1 then (if $target == .[0] then 0 elif $target < .[0] then -1 else -2 end)
  else . as $in
    | [0, length - 1, null]
    | until(.[0] > .[1];
        if .[2] != null then .[1] = -1
        else (((.[1] + .[0]) / 2) | floor) as $mid
          | $in[$mid] as $probe
          | if $probe == $target then .[2] = $mid
            elif .[0] == .[1] then .[1] = -1
            elif $probe < $target then .[0] = $mid + 1
            else .[1] = $mid - 1 end
        end)
    | if .[2] == null then (if $in[.[0]] < $target then -2 - .[0] else -1 - .[0] end) else .[2] end
  end;
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
"#;
