//! Word expansion: brace, tilde, parameter, arithmetic and command
//! substitution, field splitting, pathname expansion and quote removal.
