import TaskManager
import Testing

@Suite struct TaskIDTests {
    @Test func idsWithSameGroupAndSubjectAreEqual() {
        #expect(TaskID(.recompute, subject: "u1") == TaskID(.recompute, subject: "u1"))
        #expect(TaskID(.recompute, subject: "u1") != TaskID(.recompute, subject: "u2"))
        #expect(TaskID(.recompute, subject: "u1") != TaskID(.planGeneration, subject: "u1"))
        #expect(TaskID(.ingest) != TaskID(.ingest, subject: ""))
    }

    @Test func descriptionNamesGroupAndSubject() {
        #expect(TaskID(.trainingDataRefresh).description == "training_data_refresh")
        #expect(TaskID(.recompute, subject: "u-42").description == "recompute(u-42)")
        let custom: TaskGroupName = "nightly_batch"
        #expect(TaskID(custom, subject: "2025-01-01").description == "nightly_batch(2025-01-01)")
    }
}
