import Foundation
import Testing

@testable import HTTPAPI

/// The sessions page's metadata as the API writes it (docs/openapi.yaml, `PageMeta`): keys sorted, `next_cursor`
/// always present and null after the last page, `page` left out on a cursor's page.
struct SessionsPageEncodingTests {
    func text(_ meta: PageMeta) throws -> String { String(decoding: try APIJSON.encode(meta), as: UTF8.self) }

    @Test func theLastPageCarriesANullCursor() throws {
        let last = PageMeta(totalCount: 3, totalPages: 1, page: 1, size: 20, nextCursor: nil)
        #expect(try text(last) == #"{"next_cursor":null,"page":1,"size":20,"total_count":3,"total_pages":1}"#)
    }

    @Test func aCursorsPageHasNoPageNumber() throws {
        let middle = PageMeta(totalCount: 45, totalPages: 3, page: nil, size: 20, nextCursor: "c2")
        #expect(try text(middle) == #"{"next_cursor":"c2","size":20,"total_count":45,"total_pages":3}"#)
    }
}
