/// The version of the pipeline and the git revision its binary was built from (`pipeline --version`, and the
/// `User-Agent` of the pipeline's outgoing HTTP calls).
///
/// The revision is read at build time by `Plugins/GitRevisionPlugin` (`$PIPELINE_GIT_REVISION`, else the checkout's
/// `git rev-parse --short=12 HEAD`, with `-dirty` when tracked files were changed), never by running git at run time;
/// `unknown` when the build could not tell.
public enum PipelineVersion {
    /// The package's version: raised by hand with a release (CHANGELOG.md).
    public static let version = "0.1.0"
    /// The git revision of the build, or `unknown`.
    public static let revision = generatedGitRevision
    /// `pipeline 0.1.0 (1a2b3c4d5e6f)`: what `pipeline --version` prints.
    public static var description: String { "pipeline \(version) (\(revision))" }
    /// `pipeline/0.1.0 (1a2b3c4d5e6f)`: the `User-Agent` of outgoing HTTP calls.
    public static var userAgent: String { "pipeline/\(version) (\(revision))" }
}
