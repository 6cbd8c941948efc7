//! Facts about a parsed program the interpreter needs before running:
//! which function parameters are arrays (so an unused variable passed
//! there becomes an array shared with the caller), which functions and
//! statements do I/O, and marking the statements that do none so they run
//! on the fast synchronous path.

use super::ast::*;

/// For each function, which parameters its body uses as arrays.
pub fn array_params(prog: &Program) -> Vec<Vec<bool>> {
    let mut result: Vec<Vec<bool>> = prog.functions.iter().map(|f| vec![false; f.params]).collect();
    loop {
        let mut changed = false;
        for (index, function) in prog.functions.iter().enumerate() {
            let mut uses = result[index].clone();
            for (_, stmt) in &function.body {
                stmt_arrays(stmt, &result, &mut uses);
            }
            if uses != result[index] {
                result[index] = uses;
                changed = true;
            }
        }
        if !changed {
            return result;
        }
    }
}

fn mark(var: &Var, uses: &mut [bool]) {
    if let Var::Local(slot) = var {
        if let Some(entry) = uses.get_mut(*slot) {
            *entry = true;
        }
    }
}

fn stmt_arrays(stmt: &Stmt, known: &[Vec<bool>], uses: &mut Vec<bool>) {
    let on_expr = |e: &Expr, uses: &mut Vec<bool>| expr_arrays(e, known, uses);
    match stmt {
        Stmt::Expr(e) => on_expr(e, uses),
        Stmt::Print(args, redirect) | Stmt::Printf(args, redirect) => {
            for arg in args {
                on_expr(arg, uses);
            }
            if let Some((_, e)) = redirect {
                on_expr(e, uses);
            }
        }
        Stmt::If(c, a, b) => {
            on_expr(c, uses);
            stmt_arrays(a, known, uses);
            if let Some(b) = b {
                stmt_arrays(b, known, uses);
            }
        }
        Stmt::While(c, body) | Stmt::Do(body, c) => {
            on_expr(c, uses);
            stmt_arrays(body, known, uses);
        }
        Stmt::For(init, cond, step, body) => {
            for part in [init, step].into_iter().flatten() {
                stmt_arrays(part, known, uses);
            }
            if let Some(c) = cond {
                on_expr(c, uses);
            }
            stmt_arrays(body, known, uses);
        }
        Stmt::ForIn(var, array, body) => {
            mark(array, uses);
            if let LValue::Index(var, _) = var {
                mark(var, uses);
            }
            stmt_arrays(body, known, uses);
        }
        Stmt::Block(block) => {
            for (_, s) in block {
                stmt_arrays(s, known, uses);
            }
        }
        Stmt::Exit(Some(e)) | Stmt::Return(Some(e)) => on_expr(e, uses),
        Stmt::Delete(var, subs) => {
            mark(var, uses);
            for e in subs.iter().flatten() {
                on_expr(e, uses);
            }
        }
        Stmt::Sync(inner) => stmt_arrays(inner, known, uses),
        Stmt::Switch(switch) => {
            on_expr(&switch.subject, uses);
            for (_, s) in &switch.body {
                stmt_arrays(s, known, uses);
            }
        }
        _ => {}
    }
}

fn expr_arrays(expr: &Expr, known: &[Vec<bool>], uses: &mut Vec<bool>) {
    match expr {
        Expr::Index(var, subs) => {
            mark(var, uses);
            subs.iter().for_each(|e| expr_arrays(e, known, uses));
        }
        Expr::In(subs, var) => {
            mark(var, uses);
            subs.iter().for_each(|e| expr_arrays(e, known, uses));
        }
        Expr::Call(index, args) => {
            for (i, arg) in args.iter().enumerate() {
                if let Expr::Var(var) = arg {
                    if known.get(*index).and_then(|p| p.get(i)).copied().unwrap_or(false) {
                        mark(var, uses);
                    }
                } else {
                    expr_arrays(arg, known, uses);
                }
            }
        }
        Expr::Builtin(builtin, args) => {
            let array_at: &[usize] = match builtin {
                Builtin::Split | Builtin::Patsplit => &[1, 3],
                Builtin::Match => &[2],
                Builtin::Asort | Builtin::Asorti => &[0, 1],
                _ => &[],
            };
            for (i, arg) in args.iter().enumerate() {
                match arg {
                    Expr::Var(var) if array_at.contains(&i) => mark(var, uses),
                    other => expr_arrays(other, known, uses),
                }
            }
        }
        Expr::Assign(lv, _, _) | Expr::PreIncr(lv, _) | Expr::PostIncr(lv, _) | Expr::Getline(_, Some(lv)) => {
            if let LValue::Index(var, _) = &**lv {
                mark(var, uses);
            }
            children(expr, &mut |e| expr_arrays(e, known, uses));
        }
        other => children(other, &mut |e| expr_arrays(e, known, uses)),
    }
}

/// Calls `f` on each direct sub-expression of `expr`.
pub fn children(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    let lvalue = |lv: &LValue, f: &mut dyn FnMut(&Expr)| match lv {
        LValue::Var(_) => {}
        LValue::Index(_, subs) => subs.iter().for_each(|e| f(e)),
        LValue::Field(e) => f(e),
    };
    match expr {
        Expr::Num(_) | Expr::Str(_) | Expr::Regex(_) | Expr::TypedRegex(..) | Expr::Var(_) => {}
        Expr::Index(_, subs) | Expr::In(subs, _) | Expr::Group(subs) | Expr::Call(_, subs) | Expr::Builtin(_, subs) | Expr::Indirect(_, subs) => {
            subs.iter().for_each(|e| f(e))
        }
        Expr::Field(e) | Expr::Not(e) | Expr::Neg(e) | Expr::Plus(e) | Expr::Append(_, e) => f(e),
        Expr::Assign(lv, _, e) => {
            lvalue(lv, f);
            f(e);
        }
        Expr::PreIncr(lv, _) | Expr::PostIncr(lv, _) => lvalue(lv, f),
        Expr::Binary(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Match(a, b, _) => {
            f(a);
            f(b);
        }
        Expr::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        Expr::Getline(source, target) => {
            match source {
                GetlineSource::Main => {}
                GetlineSource::File(e) | GetlineSource::Command(e) => f(e),
            }
            if let Some(lv) = target {
                lvalue(lv, f);
            }
        }
    }
}

/// Which functions do I/O, directly or through calls.
pub fn async_functions(prog: &Program) -> Vec<bool> {
    let mut result = vec![false; prog.functions.len()];
    loop {
        let mut changed = false;
        for (index, function) in prog.functions.iter().enumerate() {
            if !result[index] && function.body.iter().any(|(_, s)| stmt_async(s, &result)) {
                result[index] = true;
                changed = true;
            }
        }
        if !changed {
            return result;
        }
    }
}

/// True when `expr` does I/O (getline, close, fflush, system, or an I/O function).
pub fn expr_async(expr: &Expr, fns: &[bool]) -> bool {
    match expr {
        Expr::Num(_) | Expr::Str(_) | Expr::Var(_) => false,
        Expr::Field(index) if matches!(**index, Expr::Num(_)) => false,
        Expr::Getline(..) | Expr::Indirect(..) => true,
        Expr::Builtin(Builtin::Close | Builtin::Fflush | Builtin::System, _) => true,
        Expr::Call(index, _) if fns.get(*index).copied().unwrap_or(false) => true,
        other => {
            let mut found = false;
            children(other, &mut |e| found = found || expr_async(e, fns));
            found
        }
    }
}

/// True when `stmt` does I/O (printing included).
pub fn stmt_async(stmt: &Stmt, fns: &[bool]) -> bool {
    let e = |e: &Expr| expr_async(e, fns);
    match stmt {
        Stmt::Print(..) | Stmt::Printf(..) => true,
        Stmt::Exit(Some(x)) => e(x),
        Stmt::Expr(x) => e(x),
        Stmt::If(c, a, b) => e(c) || stmt_async(a, fns) || b.as_ref().is_some_and(|b| stmt_async(b, fns)),
        Stmt::While(c, body) | Stmt::Do(body, c) => e(c) || stmt_async(body, fns),
        Stmt::For(init, cond, step, body) => {
            init.as_ref().is_some_and(|s| stmt_async(s, fns))
                || cond.as_ref().is_some_and(e)
                || step.as_ref().is_some_and(|s| stmt_async(s, fns))
                || stmt_async(body, fns)
        }
        Stmt::ForIn(_, _, body) => stmt_async(body, fns),
        Stmt::Block(block) => block.iter().any(|(_, s)| stmt_async(s, fns)),
        Stmt::Return(Some(x)) => e(x),
        Stmt::Delete(_, Some(subs)) => subs.iter().any(e),
        Stmt::Sync(_) => false,
        Stmt::Switch(switch) => e(&switch.subject) || switch.body.iter().any(|(_, s)| stmt_async(s, fns)),
        _ => false,
    }
}

/// Wraps every statement that does no I/O in [`Stmt::Sync`].
pub fn mark_sync(prog: &mut Program) {
    let fns = async_functions(prog);
    let blocks = prog
        .begin
        .iter_mut()
        .chain(prog.end.iter_mut())
        .chain(prog.begin_file.iter_mut())
        .chain(prog.end_file.iter_mut())
        .chain(prog.rules.iter_mut().filter_map(|r| r.action.as_mut()))
        .chain(prog.functions.iter_mut().map(|f| &mut f.body));
    for block in blocks {
        mark_block(block, &fns);
    }
}

fn mark_block(block: &mut Block, fns: &[bool]) {
    for (_, stmt) in block.iter_mut() {
        mark_stmt(stmt, fns);
    }
}

fn mark_stmt(stmt: &mut Stmt, fns: &[bool]) {
    if !stmt_async(stmt, fns) {
        let inner = std::mem::replace(stmt, Stmt::Nop);
        *stmt = Stmt::Sync(Box::new(inner));
        return;
    }
    match stmt {
        Stmt::If(_, a, b) => {
            mark_stmt(a, fns);
            if let Some(b) = b {
                mark_stmt(b, fns);
            }
        }
        Stmt::While(_, body) | Stmt::Do(body, _) | Stmt::ForIn(_, _, body) => mark_stmt(body, fns),
        Stmt::For(init, _, step, body) => {
            for part in [init, step].into_iter().flatten() {
                mark_stmt(part, fns);
            }
            mark_stmt(body, fns);
        }
        Stmt::Block(block) => mark_block(block, fns),
        Stmt::Switch(switch) => mark_block(&mut switch.body, fns),
        _ => {}
    }
}
