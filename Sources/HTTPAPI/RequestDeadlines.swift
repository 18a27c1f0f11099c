import NIOCore
import NIOHTTPTypes

/// Deadlines on reading a request, beside the idle timeout (which a client defeats by sending one byte now and then):
///
/// - the request head (request line and header fields) must be complete within `headTimeout` of the connection's
///   opening, or, on a kept-alive connection, within `idleTimeout + headTimeout` of the previous response;
/// - the body must be complete within `bodyTimeout` of its head;
/// - once `minBodyRate.grace` has passed since the head, the body must keep coming at `minBodyRate.bytesPerSecond` on
///   average (checked every second): a client that holds an upload slot by sending its body slowly (one byte every
///   5 s from 8 accounts took every slot of the server) holds it for the grace period only
///   (Benchmarks/attack-results.md).
///
/// A connection that misses a deadline is closed (a request being read is abandoned; its handler sees the body stream
/// end with an error). No deadline runs while a request is being answered. Placed after the HTTP/1 decoder, so it
/// sees whole heads: the head deadline is armed when the connection opens and after each response.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    let idleTimeout: TimeAmount
    let minBodyRate: MinimumBodyRate
    /// Called (on the event loop) with `"head"` or `"body"` when a deadline closes a connection.
    let onTimeout: @Sendable (String) -> Void
    private var deadline: Scheduled<Void>?
    /// The body-rate check of the request being read, and what it has read since its head.
    private var rateCheck: RepeatedTask?
    private var bodyBytes = 0
    private var headAt = NIODeadline.now()
    /// A request's head has come and not yet its end / its response has not yet ended.
    private var requestOpen = false
    private var responseOpen = false

    init(
        headTimeout: TimeAmount, bodyTimeout: TimeAmount, idleTimeout: TimeAmount,
        minBodyRate: MinimumBodyRate = .init(), onTimeout: @escaping @Sendable (String) -> Void
    ) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.minBodyRate = minBodyRate
        self.onTimeout = onTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, after: headTimeout, "head") }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(context, after: headTimeout, "head") }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        stopRateCheck()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        stopRateCheck()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            (requestOpen, responseOpen) = (true, true)
            arm(context, after: bodyTimeout, "body")
            startRateCheck(context)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            requestOpen = false
            stopRateCheck()
            // Being answered: no deadline. Answered already (refused before its body was read): the next head's.
            if responseOpen { disarm() } else { arm(context, after: idleTimeout + headTimeout, "head") }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responseOpen = false
            // A body still coming keeps its own deadline; otherwise the next request's head has one.
            if !requestOpen { arm(context, after: idleTimeout + headTimeout, "head") }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, after timeout: TimeAmount, _ what: String) {
        disarm()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let onTimeout = self.onTimeout
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            onTimeout(what)
            loopBound.value.close(promise: nil)
        }
    }

    private func startRateCheck(_ context: ChannelHandlerContext) {
        stopRateCheck()
        guard minBodyRate.bytesPerSecond > 0 else { return }
        bodyBytes = 0
        headAt = .now()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let (grace, rate, onTimeout) = (minBodyRate.grace, minBodyRate.bytesPerSecond, self.onTimeout)
        rateCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: grace, delay: .seconds(1)) { task in
            let (handler, context) = loopBound.value
            guard handler.requestOpen else {
                task.cancel()
                return
            }
            let elapsed = Double((NIODeadline.now() - handler.headAt).nanoseconds) / 1e9
            if Double(handler.bodyBytes) < Double(rate) * elapsed {
                task.cancel()
                onTimeout("body_rate")
                context.close(promise: nil)
            }
        }
    }

    private func stopRateCheck() {
        rateCheck?.cancel()
        rateCheck = nil
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

/// The slowest a request body may arrive once `grace` has passed since its head (0 bytes per second: no check).
public struct MinimumBodyRate: Sendable, Equatable {
    public var bytesPerSecond: Int
    public var grace: TimeAmount
    public init(bytesPerSecond: Int = 1024, grace: TimeAmount = .seconds(10)) {
        self.bytesPerSecond = bytesPerSecond
        self.grace = grace
    }
}
