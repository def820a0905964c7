"""No public function or method of the library takes more than 12 parameters: the options every measure shares
travel as objects (:class:`wordbias.options.Resampling`, :class:`wordbias.options.Words`), documented once."""
import ast
from pathlib import Path

import wordbias

ROOT = Path(wordbias.__file__).parent
MOST = 12


def _count(f: ast.FunctionDef) -> int:
    a = f.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)


def over(tree: ast.Module, most: int = MOST) -> list[str]:
    """The public functions and methods of a module's syntax tree that take more than ``most`` parameters."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and _count(node) > most:
            found.append(f"{node.name} ({_count(node)})")
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found += [f"{node.name}.{f.name} ({_count(f)})" for f in node.body if isinstance(f, ast.FunctionDef)
                      and not f.name.startswith("_") and _count(f) > most]
    return found


def test_no_public_function_takes_more_than_twelve_parameters():
    bad = [f"{p.relative_to(ROOT)}: {name}" for p in sorted(ROOT.rglob("*.py"))
           for name in over(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bad, f"public functions over {MOST} parameters (take Resampling/Words options instead): {bad}"


def test_the_check_can_fail():
    code = "def f(a, b, c, d, e, f, g, h, i, j, k, l, m):\n    pass\nclass C:\n    def g(self, *a, **k):\n        pass\n"
    assert over(ast.parse(code)) == ["f (13)"]
    assert over(ast.parse(code), most=2) == ["f (13)", "C.g (3)"]
