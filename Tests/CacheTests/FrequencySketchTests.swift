import Testing

@testable import Cache

@Suite struct FrequencySketchTests {
    @Test func neverUnderestimatesAndSaturatesAtFifteen() {
        var sketch = FrequencySketch(capacity: 1_000)
        var generator = SeededGenerator(seed: 3)
        var truth: [Int: Int] = [:]
        for _ in 0..<5_000 { // below the aging sample of 10,000
            let key = Int.random(in: 0..<2_000, using: &generator)
            truth[key, default: 0] += 1
            sketch.increment(key.hashValue)
        }
        for (key, count) in truth {
            #expect(sketch.frequency(key.hashValue) >= min(count, 15))
            #expect(sketch.frequency(key.hashValue) <= 15)
        }
    }

    @Test func estimatesAreMostlyExactWhenSparse() {
        var sketch = FrequencySketch(capacity: 1_000)
        for key in 0..<500 {
            for _ in 0..<(key % 5) { sketch.increment(key.hashValue) }
        }
        let exact = (0..<500).filter { sketch.frequency($0.hashValue) == $0 % 5 }.count
        #expect(exact > 450)
    }

    @Test func agingHalvesEveryCounter() {
        var sketch = FrequencySketch(capacity: 16) // sample size 160
        for _ in 0..<12 { sketch.increment(7.hashValue) }
        #expect(sketch.frequency(7.hashValue) == 12)
        // Add other keys until the additions reach the sample size and everything is halved.
        var key = 1_000
        var before = 0
        var atHalving = 0
        while sketch.additions >= before {
            before = sketch.additions
            atHalving = sketch.frequency(7.hashValue)
            sketch.increment(key.hashValue)
            key += 1
        }
        #expect(atHalving >= 12)
        #expect(sketch.frequency(7.hashValue) == atHalving / 2)
        #expect(sketch.additions < 160)
    }
}
