"""Reading the operator's endpoints as Prometheus and a probe would: over HTTP, the
metrics text parsed by prometheus-client's own parser."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from aiohttp import ClientSession
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample


async def get(port: int, path: str) -> tuple[int, str]:
    """The status and body of ``GET http://127.0.0.1:<port><path>``."""
    async with ClientSession() as session, \
            session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def samples(text: str) -> list[Sample]:
    """Every sample of a metrics text (raises if it does not parse)."""
    return [s for family in text_string_to_metric_families(text) for s in family.samples]


def matching(found: list[Sample], name: str, **labels: str) -> Iterator[Sample]:
    """The samples called ``name`` whose labels include ``labels``."""
    return (s for s in found if s.name == name
            and all(s.labels.get(k) == v for k, v in labels.items()))


def total(found: list[Sample], name: str, **labels: str) -> float:
    """The sum of the samples called ``name`` with ``labels``."""
    return sum(s.value for s in matching(found, name, **labels))


def label_values(found: list[Sample]) -> set[str]:
    """Every label value of every sample."""
    return {value for s in found for value in s.labels.values()}


def by_label(found: list[Sample], name: str, label: str) -> Mapping[str, float]:
    """The samples called ``name`` summed by the value of ``label``."""
    sums: dict[str, float] = {}
    for s in matching(found, name):
        sums[s.labels.get(label, "")] = sums.get(s.labels.get(label, ""), 0.0) + s.value
    return sums
