from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Union, overload

__version__: str

Html = Union[str, bytes]
TextFormat = Literal["txt", "text", "markdown", "md", "html"]
JsonFormat = Literal["json", "dict"]
Param = Union[str, int, float, bool]
Favor = Literal["precision", "balanced", "recall"]

class GleanerError(Exception): ...
class InputTooLarge(GleanerError): ...
class NotHtml(GleanerError): ...
class TooManyElements(GleanerError): ...
class TimeBudgetExceeded(GleanerError): ...
class ExtractionError(GleanerError): ...
class InvalidModel(GleanerError): ...

def algorithms() -> List[str]: ...
def parameters(algorithm: str = ...) -> List[Dict[str, Any]]: ...
@overload
def extract(
    html: Html, url: Optional[str] = ..., algorithm: Optional[str] = ...,
    output_format: TextFormat = ..., model: Optional[Union[str, PathLike[str]]] = ...,
    page_type: Optional[str] = ...,
    *, links: bool = ..., images: bool = ..., comments: bool = ...,
    with_metadata: bool = ..., favor: Favor = ..., precision: bool = ..., recall: bool = ...,
    encoding: Optional[str] = ..., max_bytes: int = ..., time_budget_ms: int = ...,
    max_memory_factor: int = ..., **params: Param,
) -> str: ...
@overload
def extract(
    html: Html, url: Optional[str] = ..., algorithm: Optional[str] = ...,
    output_format: JsonFormat = ..., model: Optional[Union[str, PathLike[str]]] = ...,
    page_type: Optional[str] = ...,
    *, links: bool = ..., images: bool = ..., comments: bool = ...,
    with_metadata: bool = ..., favor: Favor = ..., precision: bool = ..., recall: bool = ...,
    encoding: Optional[str] = ..., max_bytes: int = ..., time_budget_ms: int = ...,
    max_memory_factor: int = ..., **params: Param,
) -> Dict[str, Any]: ...
@overload
def extract_batch(
    pages: Iterable[Html], parallel: Optional[int] = ..., urls: Optional[Sequence[Optional[str]]] = ...,
    algorithm: Optional[str] = ..., output_format: TextFormat = ...,
    model: Optional[Union[str, PathLike[str]]] = ..., page_type: Optional[str] = ...,
    *, links: bool = ..., images: bool = ..., comments: bool = ...,
    with_metadata: bool = ..., favor: Favor = ..., precision: bool = ..., recall: bool = ...,
    encoding: Optional[str] = ..., max_bytes: int = ..., time_budget_ms: int = ...,
    max_memory_factor: int = ..., **params: Param,
) -> List[Optional[str]]: ...
@overload
def extract_batch(
    pages: Iterable[Html], parallel: Optional[int] = ..., urls: Optional[Sequence[Optional[str]]] = ...,
    algorithm: Optional[str] = ..., output_format: JsonFormat = ...,
    model: Optional[Union[str, PathLike[str]]] = ..., page_type: Optional[str] = ...,
    *, links: bool = ..., images: bool = ..., comments: bool = ...,
    with_metadata: bool = ..., favor: Favor = ..., precision: bool = ..., recall: bool = ...,
    encoding: Optional[str] = ..., max_bytes: int = ..., time_budget_ms: int = ...,
    max_memory_factor: int = ..., **params: Param,
) -> List[Dict[str, Any]]: ...

def iter_warc(
    path: Union[str, "PathLike[str]"], algorithm: Optional[str] = ...,
    *, links: bool = ..., images: bool = ..., comments: bool = ...,
    with_metadata: bool = ..., favor: Favor = ..., precision: bool = ..., recall: bool = ...,
    encoding: Optional[str] = ..., max_bytes: int = ..., time_budget_ms: int = ...,
    max_memory_factor: int = ..., **params: Param,
) -> Iterator[Dict[str, Any]]: ...

class Template:
    @classmethod
    def learn(cls, pages: Iterable[Html], share: Optional[float] = ...) -> "Template": ...
    @classmethod
    def load(cls, path: Union[str, "PathLike[str]"]) -> "Template": ...
    @classmethod
    def from_json(cls, data: Union[str, bytes]) -> "Template": ...
    def save(self, path: Union[str, "PathLike[str]"]) -> None: ...
    def to_json(self) -> str: ...
    @property
    def pages(self) -> int: ...
    @property
    def segments(self) -> List[str]: ...
    @overload
    def extract(
        self, html: Html, url: Optional[str] = ..., algorithm: Optional[str] = ...,
        output_format: TextFormat = ..., **params: Param,
    ) -> str: ...
    @overload
    def extract(
        self, html: Html, url: Optional[str] = ..., algorithm: Optional[str] = ...,
        output_format: JsonFormat = ..., **params: Param,
    ) -> Dict[str, Any]: ...
    def extract_batch(
        self, pages: Iterable[Html], parallel: Optional[int] = ...,
        urls: Optional[Sequence[Optional[str]]] = ..., algorithm: Optional[str] = ...,
        output_format: str = ..., **params: Param,
    ) -> List[Any]: ...
