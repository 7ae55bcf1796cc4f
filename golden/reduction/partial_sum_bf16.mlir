entry @partial_sum_bf16(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [4096], strides = [1] : tensor_view<4096xbf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xbf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xbf16, strides=[1]>>, tile<i32> -> tile<512xbf16>, token
  %9 = ftof %7  : tile<512xbf16> -> tile<512xf32>
  %10 = reduce %9 dim=0 identities=[0.000000e+00 : f32] : tile<512xf32> -> tile<f32> 
  (%11: tile<f32>, %12: tile<f32>) {
    %13 = addf %11, %12  : tile<f32>
    yield %13 : tile<f32>
  }
  %14 = ftof %10  : tile<f32> -> tile<bf16>
  %15 = reshape %14 : tile<bf16> -> tile<1xbf16>
  %16 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
  %17 = make_tensor_view %16, shape = [8], strides = [1] : tensor_view<8xbf16, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(1), padding_value = zero, tensor_view<8xbf16, strides=[1]>>
  %19 = store_view_tko weak %15, %18[%1] token = %8 : tile<1xbf16>, partition_view<tile=(1), padding_value = zero, tensor_view<8xbf16, strides=[1]>>, tile<i32> -> token
  return
}
