"""The import graph of the project's own code: one direction of dependency, no circle, nothing hidden.

Built with ``ast`` from the source files (nothing is imported to build it): an edge A -> B for every ``import`` in
module A that names module B of the project (``from package import module`` names the module, ``from module
import name`` the module). The layers, top first:

    bot.py                  the process: builds the bot from everything below
    cogs/                   Discord only; speaks to the session service, never to storage; by role, its folders
                            commands/ and deliveries/, components/, posting/, presentation/, plumbing/ (top first)
    sessions/               the session service: the only code that combines engines, storage, rendering and AI
    puzzles/                mining puzzles from game records (the AI's searches on the engines)
    ai/  render/  games/    computer players, board images, the registry
    competition/            pairings, schedules, standings, clocks, seasons: pure functions over plain data
    lessons/                the courses of /<game> learn (data on the engine contract)
    storage/  engines/      the database; the rules
    locales/                the message catalogue

``bench/`` and the catalogue's own tools (``locales.collect``, ``locales.compile``) are scripts over all of it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "cogs",
    "sessions",
    "puzzles",
    "ai",
    "render",
    "games",
    "lessons",
    "competition",
    "storage",
    "engines",
    "locales",
    "bench",
)
TOOLS = {"locales.collect", "locales.compile"}  # developer scripts: they look at the whole bot
# What each layer may import of the project (itself included); bot.py and the tools may import anything.
ALLOWED: dict[str, set[str]] = {
    "cogs": {"cogs", "sessions", "games", "locales"},
    "sessions": {
        "sessions",
        "puzzles",
        "ai",
        "render",
        "games",
        "lessons",
        "competition",
        "storage",
        "engines",
        "locales",
    },
    # locales: a theme's name is a catalogue msgid (N_), as the games' and the lessons' words are
    "puzzles": {"puzzles", "ai", "engines", "locales"},
    "ai": {"ai", "games", "engines", "locales"},
    "render": {"render", "engines", "locales"},
    "games": {"games", "engines", "locales"},
    "lessons": {"lessons", "engines", "locales"},
    "competition": {"competition"},
    "storage": {"storage"},
    "engines": {"engines"},
    "locales": {"locales"},
    "bench": {"bench", "bot", "tests", *PACKAGES[:-1]},
}
# What the Discord layer takes from below: every type from the model, the service's type (through one module of
# its own), the catalogue, and the registry only where commands are built from it (their choices).
COGS_TAKE = {"sessions.model", "sessions.service", "locales", "games"}
SERVICE_HOST = "cogs.plumbing.host"  # the one cog that imports sessions.service
COGS_BUILDING_FROM_THE_REGISTRY = {"cogs.commands.admin", "cogs.commands.leaderboard", "cogs.commands.tournaments"}
# The Discord layer's folders by role, top first: each imports only itself and the folders below it.
COG_FLOORS = {"commands": 5, "deliveries": 5, "components": 4, "posting": 3, "presentation": 2, "plumbing": 1}
# Libraries that only some layers may use.
ONLY_IN: dict[str, set[str]] = {
    "discord": {"bot", "cogs", "bench"},
    "PIL": {"render", "bench"},
    "sqlalchemy": {"storage", "bench"},
    "alembic": {"storage"},
    "asyncpg": {"storage", "bench"},
    "networkx": {"competition"},
}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # a module of the project, or the top-level name of a library
    line: int
    nested: bool  # inside a function or class, not at the module's top level


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    files = [ROOT / "bot.py", *(path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py")))]
    return {module_name(path): path for path in files if "alembic" not in path.parts}


def _tops(tree: ast.Module) -> Iterator[tuple[ast.AST, bool]]:
    """Every import statement, and whether it is inside a function or a class."""

    def walk(node: ast.AST, nested: bool) -> Iterator[tuple[ast.AST, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, nested
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
            yield from walk(child, inner)

    yield from walk(tree, False)


def imports(modules: dict[str, Path]) -> list[Import]:
    found = []
    for source, path in modules.items():
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node, nested in _tops(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:  # a relative import
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            for name in names:
                target = next((name[: len(p)] for p in _prefixes(name) if name[: len(p)] in modules), None)
                found.append(Import(source, target or name.split(".")[0], node.lineno, nested))
    return found


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 0, -1)]


def layer(module: str) -> str:
    return module.split(".")[0]


MODULES = sources()
IMPORTS = imports(MODULES)
PROJECT = [edge for edge in IMPORTS if edge.target in MODULES]


def test_the_graph_is_read_from_the_real_imports() -> None:
    edges = {(edge.source, edge.target) for edge in PROJECT}
    # A few edges every reader of the code knows, so a broken reader cannot pass the other tests by seeing nothing.
    assert {
        ("bot", "cogs.commands.every_game"),
        ("cogs.plumbing.host", "sessions.service"),
        ("sessions.table", "storage.database"),
    } <= edges
    assert ("games.iago", "engines.iago") in edges  # "from engines import iago" names the module


def test_no_import_circle() -> None:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for edge in PROJECT:
        if edge.source != edge.target:
            graph[edge.source].add(edge.target)
    circles = [component for component in _strongly_connected(graph) if len(component) > 1]
    assert circles == []


def test_no_project_import_inside_a_function_or_class() -> None:
    """A late import is how a circle hides; a library may still be imported where it is needed (a worker's)."""
    hidden = [f"{edge.source}:{edge.line} imports {edge.target}" for edge in PROJECT if edge.nested]
    assert hidden == []


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = [
        f"{edge.source}:{edge.line} -> {edge.target}"
        for edge in PROJECT
        if edge.source != "bot" and edge.source not in TOOLS and layer(edge.target) not in ALLOWED[layer(edge.source)]
    ]
    assert wrong == []


def test_storage_is_reached_only_through_the_session_service() -> None:
    """No cog, nor anything else below the bot but the service's own parts, reads or writes the database."""
    reaching = {edge.source for edge in PROJECT if layer(edge.target) == "storage"}
    assert {layer(module) for module in reaching} <= {"sessions", "storage"}


def test_the_discord_layer_takes_from_below_only_the_model_the_service_the_catalogue_and_the_registry() -> None:
    taken = [
        f"{edge.source}:{edge.line} -> {edge.target}"
        for edge in PROJECT
        if layer(edge.source) == "cogs" and layer(edge.target) != "cogs" and edge.target not in COGS_TAKE
    ]
    assert taken == []
    service = {edge.source for edge in PROJECT if layer(edge.source) == "cogs" and edge.target == "sessions.service"}
    assert service == {SERVICE_HOST}
    registry = {edge.source for edge in PROJECT if layer(edge.source) == "cogs" and edge.target == "games"}
    assert registry <= COGS_BUILDING_FROM_THE_REGISTRY


def test_each_folder_of_the_discord_layer_imports_only_the_folders_below_it() -> None:
    def folder(module: str) -> str:
        return module.split(".")[1]

    cogs = [module for module in MODULES if layer(module) == "cogs" and module != "cogs"]
    assert {folder(module) for module in cogs} == set(COG_FLOORS)
    upward = [
        f"{edge.source}:{edge.line} -> {edge.target}"
        for edge in PROJECT
        if edge.source in cogs
        and edge.target in cogs
        and folder(edge.source) != folder(edge.target)
        and COG_FLOORS[folder(edge.target)] >= COG_FLOORS[folder(edge.source)]
    ]
    assert upward == []


def test_libraries_stay_in_their_layers() -> None:
    """Nothing below the cogs imports discord; only the renderers draw, only storage speaks SQL."""
    misplaced = [
        f"{edge.source}:{edge.line} imports {edge.target}"
        for edge in IMPORTS
        if edge.target in ONLY_IN and layer(edge.source) not in ONLY_IN[edge.target] and edge.source not in TOOLS
    ]
    assert misplaced == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the strongly connected components of ``graph``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components
